import { Link } from 'react-router';
import { api, type Schemas } from '../api';
import {
  BehindButtonOnPhone,
  DeskFrame,
  FILTERS,
  FilterForm,
  Pager,
  statusFilter,
  useFilters,
} from '../components/desk';
import { Empty, LoadError, Loading, StatusBadge, useLoad } from '../components/ui';

const CLAIM_STATUSES = ['open', 'reunited'] as const;

/** `/lostfound/claims`: the location's claims. */
export function DeskClaimsPage() {
  return (
    <DeskFrame title="Lost & found">{(location) => <ClaimsPanel key={location.id} location={location} />}</DeskFrame>
  );
}

function ClaimsPanel({ location }: { location: Schemas['DeskLocationView'] }) {
  const { filters, page, setFilters } = useFilters();
  const claims = useLoad(
    () =>
      api.GET('/console/api/lostfound/claims', {
        params: {
          query: {
            location_id: location.id,
            ...filters,
            status: statusFilter<(typeof CLAIM_STATUSES)[number]>(filters.status),
            page,
          },
        },
      }),
    [location.id, ...FILTERS.map((name) => filters[name]), page],
  );
  return (
    <>
      <h2>Claims</h2>
      <p className="muted">
        Filed on the public page, by phone, or through the API. A claim with a match has a stored item that fits it.
      </p>
      <BehindButtonOnPhone label="Search claims">
        <FilterForm
          key={JSON.stringify(filters)}
          what="claims"
          statuses={CLAIM_STATUSES}
          filters={filters}
          onApply={(next) => setFilters(next)}
          dateLabel="Lost"
        />
      </BehindButtonOnPhone>
      {claims.error ? <LoadError error={claims.error} retry={claims.reload} /> : null}
      {!claims.data && claims.loading ? <Loading what="claims" /> : null}
      {claims.data && claims.data.data.length === 0 ? (
        <Empty>{FILTERS.some((name) => filters[name]) ? 'No claim matches this search.' : 'No claims yet.'}</Empty>
      ) : null}
      {claims.data && claims.data.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="claims-table" aria-busy={claims.loading || undefined}>
            <caption className="visually-hidden">Claims</caption>
            <thead>
              <tr>
                <th scope="col">Claim</th>
                <th scope="col">Claimant</th>
                <th scope="col">Category</th>
                <th scope="col">Lost</th>
                <th scope="col">Match</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {claims.data.data.map((claim) => (
                <tr key={claim.id} data-claim-id={claim.id}>
                  <td data-label="Claim">
                    <Link to={`/lostfound/claims/${claim.id}?location=${location.id}`}>
                      #{claim.id} {claim.description || claim.category}
                    </Link>
                  </td>
                  <td data-label="Claimant">{claim.claimant_name}</td>
                  <td data-label="Category">
                    {claim.category}
                    {claim.verify_required ? <span className="badge badge--warn badge--inline">high value</span> : null}
                  </td>
                  <td data-label="Lost">
                    {claim.lost_date ?? '—'}
                    {claim.lost_area ? `, ${claim.lost_area}` : ''}
                  </td>
                  <td data-label="Match">
                    {claim.has_match ? (
                      <span className="badge badge--good">match</span>
                    ) : (
                      <span className="muted">none yet</span>
                    )}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={claim.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <Pager what="claims" page={claims.data} onPage={(next) => setFilters({}, next)} />
    </>
  );
}
