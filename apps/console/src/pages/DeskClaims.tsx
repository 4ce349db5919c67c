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
import { Listing, StatusBadge, useLoad } from '../components/ui';

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
      <Listing
        load={claims}
        rows={claims.data?.data}
        what="claims"
        empty={FILTERS.some((name) => filters[name]) ? 'No claim matches this search.' : 'No claims yet.'}
        caption="Claims"
        testId="claims-table"
        rowKey={(claim) => claim.id}
        rowAttributes={(claim) => ({ 'data-claim-id': claim.id })}
        columns={[
          {
            header: 'Claim',
            cell: (claim) => (
              <Link to={`/lostfound/claims/${claim.id}?location=${location.id}`}>
                #{claim.id} {claim.description || claim.category}
              </Link>
            ),
          },
          { header: 'Claimant', cell: (claim) => claim.claimant_name },
          {
            header: 'Category',
            cell: (claim) => (
              <>
                {claim.category}
                {claim.verify_required ? <span className="badge badge--warn badge--inline">high value</span> : null}
              </>
            ),
          },
          {
            header: 'Lost',
            cell: (claim) => `${claim.lost_date ?? '—'}${claim.lost_area ? `, ${claim.lost_area}` : ''}`,
          },
          {
            header: 'Match',
            cell: (claim) =>
              claim.has_match ? (
                <span className="badge badge--good">match</span>
              ) : (
                <span className="muted">none yet</span>
              ),
          },
          { header: 'Status', cell: (claim) => <StatusBadge status={claim.status} /> },
        ]}
      />
      <Pager what="claims" page={claims.data} onPage={(next) => setFilters({}, next)} />
    </>
  );
}
