import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ClaimCreate, ReuniteBody } from './claim.dto';
import { FoundItemCreate, IntIdParam, ListFoundItemsQuery } from './found-item.dto';
import { describeValidationErrors } from '../common/validation-messages';
import { isCalendarDate, isPhotoUrl, normalizePhone, phoneCountry } from './lostfound-validation';
import { CreateLocationBody } from './location.dto';
import { ListSmsQuery } from './sms.dto';

function problems<T extends object>(cls: new () => T, plain: object): string[] {
  const instance = plainToInstance(cls, plain);
  return validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).map((error) => error.property);
}

describe('lost-and-found request validation', () => {
  it('takes only real calendar days written YYYY-MM-DD', () => {
    expect(isCalendarDate('2026-11-20')).toBe(true);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    for (const bad of ['2025-02-29', '2026-13-01', '2026-1-5', '20261120', '2026-11-20T00:00:00Z', 20261120, '']) {
      expect(isCalendarDate(bad)).toBe(false);
    }
  });

  it('reads a claimant phone as E.164, assuming the US without a country code', () => {
    expect(normalizePhone('+14155550100')).toBe('+14155550100');
    expect(normalizePhone('+15555550123')).toBe('+15555550123'); // possible, if not assigned: the provider decides
    expect(normalizePhone('+1415555')).toBeUndefined();
    expect(normalizePhone('415-CALL-NOW')).toBeUndefined();
    expect(normalizePhone('+14158675309')).toBe('+14158675309');
    expect(normalizePhone('(415) 867-5309')).toBe('+14158675309');
    expect(normalizePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalizePhone('not a phone')).toBeUndefined();
  });

  it('places a phone in its country by the numbering plan, not by its +1', () => {
    expect(phoneCountry('+14158675309')).toBe('US');
    expect(phoneCountry('+16132345678')).toBe('CA');
    expect(phoneCountry('+18762345678')).toBe('JM');
    expect(phoneCountry('+447400123456')).toBe('GB');
    expect(phoneCountry('+15555550123')).toBeUndefined();
  });

  it("takes a location's texting countries as two-letter codes of known numbering plans, in any case", () => {
    expect(plainToInstance(CreateLocationBody, { name: 'Depot', sms_countries: ['gb', 'US'] }).sms_countries).toEqual([
      'GB',
      'US',
    ]);
    expect(problems(CreateLocationBody, { name: 'Depot', sms_countries: ['gb', 'US'] })).toEqual([]);
    expect(problems(CreateLocationBody, { name: 'Depot', sms_countries: [] })).toEqual([]);
    for (const sms_countries of [['XX'], ['USA'], 'US', [1]]) {
      expect(problems(CreateLocationBody, { name: 'Depot', sms_countries })).toEqual(['sms_countries']);
    }
  });

  it('wants location_id in a body to be a JSON integer', () => {
    const body = { description: 'Blue umbrella' };
    expect(problems(FoundItemCreate, { ...body, location_id: 3 })).toEqual([]);
    for (const bad of ['3', 3.5, null, true])
      expect(problems(FoundItemCreate, { ...body, location_id: bad })).toEqual(['location_id']);
    expect(problems(FoundItemCreate, body)).toEqual(['location_id']);
  });

  it('reads location_id and page in a query string as integers, and refuses anything else', () => {
    expect(problems(ListFoundItemsQuery, { location_id: '3', page: '2' })).toEqual([]);
    for (const bad of ['abc', '1.5', '1e3', '', ['1', '2']])
      expect(problems(ListFoundItemsQuery, { location_id: bad })).toEqual(['location_id']);
    expect(problems(ListFoundItemsQuery, { location_id: '3', page: '0' })).toEqual(['page']);
    expect(problems(IntIdParam, { id: 'x1' })).toEqual(['id']);
  });

  it('refuses an unknown status or a malformed date in a list query', () => {
    expect(problems(ListFoundItemsQuery, { location_id: '1', status: 'lost' })).toEqual(['status']);
    expect(problems(ListFoundItemsQuery, { location_id: '1', from: '11/20/2026' })).toEqual(['from']);
  });

  it('requires a found item description with text in it', () => {
    expect(problems(FoundItemCreate, { location_id: 1, description: '   ' })).toEqual(['description']);
  });

  it('requires a claimant name and a valid phone, and a real email when one is given', () => {
    const claim = { location_id: 1, claimant_name: 'Jane', claimant_phone: '+14158675309' };
    expect(problems(ClaimCreate, claim)).toEqual([]);
    expect(problems(ClaimCreate, { ...claim, claimant_phone: '12' })).toEqual(['claimant_phone']);
    expect(problems(ClaimCreate, { ...claim, claimant_email: 'nope' })).toEqual(['claimant_email']);
    expect(problems(ClaimCreate, { ...claim, claimant_name: '' })).toEqual(['claimant_name']);
  });

  describe('photo URLs (issue 47: shown to staff as links)', () => {
    const said = <T extends object>(cls: new () => T, plain: object): string =>
      describeValidationErrors(
        validateSync(plainToInstance(cls, plain), { whitelist: true, forbidNonWhitelisted: true }),
      );
    const item = { location_id: 1, description: 'black umbrella' };
    const claim = { location_id: 1, claimant_name: 'Ann', claimant_phone: '+14155550123' };
    const refused = [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://files.example.com/photo.jpg',
      'file:///etc/passwd',
      '//example.com/photo.jpg',
      '/photos/1.jpg',
      ' https://example.com/photo.jpg',
      'https://example.com/photo\n.jpg',
      'https://',
    ];

    it('takes only absolute https:// and http:// URLs with a host', () => {
      for (const good of ['https://example.com/photo.jpg', 'http://example.com/a.png?x=1', 'HTTPS://EXAMPLE.COM/P.JPG'])
        expect({ good, ok: isPhotoUrl(good) }).toEqual({ good, ok: true });
      for (const bad of [...refused, 'https://example.com/\tphoto.jpg', '', 12])
        expect({ bad, ok: isPhotoUrl(bad) }).toEqual({ bad, ok: false });
    });

    it('refuses a found item whose image_url or photo_urls item has another scheme, naming the field', () => {
      expect(said(FoundItemCreate, { ...item, image_url: 'javascript:alert(1)' })).toBe(
        'image_url must be an https:// or http:// URL',
      );
      expect(
        said(FoundItemCreate, { ...item, photo_urls: ['https://example.com/1.jpg', 'data:text/html,<b>hi</b>'] }),
      ).toBe('photo_urls[1] must be an https:// or http:// URL');
      expect(said(FoundItemCreate, { ...item, photo_urls: ['ftp://files.example.com/2.jpg'] })).toBe(
        'photo_urls[0] must be an https:// or http:// URL',
      );
      for (const bad of refused) expect(problems(FoundItemCreate, { ...item, image_url: bad })).toEqual(['image_url']);
    });

    it('refuses a claim whose image_url has another scheme', () => {
      expect(said(ClaimCreate, { ...claim, image_url: 'data:image/svg+xml,<svg/onload=alert(1)>' })).toBe(
        'image_url must be an https:// or http:// URL',
      );
      for (const bad of refused) expect(problems(ClaimCreate, { ...claim, image_url: bad })).toEqual(['image_url']);
    });

    const withCredentials = [
      'https://user:pass@example.com/photo.jpg',
      'https://user@example.com/photo.jpg',
      'https://:pass@example.com/photo.jpg',
      'http://example.com@evil.example/photo.jpg',
      'https://@example.com/photo.jpg',
      'HTTPS://USER:PASS@EXAMPLE.COM/P.JPG',
    ];
    const withInvisibles = [
      'https://example.com/\u202Egpj.exe',
      'https://example.com/photo\u202D.jpg',
      'https://exa\u202Emple.com/photo.jpg',
      'https://example.com/\u2066photo\u2069.jpg',
      'https://example.com/photo\u200B.jpg',
      'https://example.com/photo.jpg\u200F',
      'https://example.com/photo\uFEFF.jpg',
    ];

    it('refuses a user name or password in a photo URL, and says so', () => {
      for (const bad of withCredentials) {
        expect({ bad, ok: isPhotoUrl(bad) }).toEqual({ bad, ok: false });
        expect(said(FoundItemCreate, { ...item, image_url: bad })).toBe(
          'image_url must not hold a user name or password (user:password@)',
        );
        expect(said(ClaimCreate, { ...claim, image_url: bad })).toBe(
          'image_url must not hold a user name or password (user:password@)',
        );
      }
      expect(
        said(FoundItemCreate, {
          ...item,
          photo_urls: ['https://example.com/1.jpg', 'https://user:pass@example.com/2.jpg'],
        }),
      ).toBe('photo_urls[1] must not hold a user name or password (user:password@)');
      // An @ after the host is part of the path, not a user name.
      expect(isPhotoUrl('https://example.com/photos/@jane/1.jpg')).toBe(true);
    });

    it('refuses bidirectional and other invisible formatting characters (U+202E) in a photo URL', () => {
      for (const bad of withInvisibles) {
        expect({ bad, ok: isPhotoUrl(bad) }).toEqual({ bad, ok: false });
        expect(said(FoundItemCreate, { ...item, photo_urls: [bad] })).toMatch(
          /^photo_urls\[0\] must not hold invisible or text-direction characters \(such as U\+202E\)/,
        );
        expect(problems(ClaimCreate, { ...claim, image_url: bad })).toEqual(['image_url']);
      }
      // Percent-encoded, the same character is only text in the path.
      expect(isPhotoUrl('https://example.com/%E2%80%AEgpj.exe')).toBe(true);
      expect(isPhotoUrl('https://example.com/caf\u00e9/\u5199\u771f.jpg')).toBe(true);
    });

    it('takes an https:// or http:// photo, and an empty image_url as no photo', () => {
      expect(
        problems(FoundItemCreate, {
          ...item,
          image_url: 'https://example.com/1.jpg',
          photo_urls: ['http://example.com/2.jpg', 'https://cdn.example.com/3.webp'],
        }),
      ).toEqual([]);
      expect(problems(FoundItemCreate, { ...item, image_url: '' })).toEqual([]);
      expect(problems(ClaimCreate, { ...claim, image_url: 'https://example.com/1.jpg' })).toEqual([]);
      expect(problems(ClaimCreate, { ...claim, image_url: '' })).toEqual([]);
      expect(problems(FoundItemCreate, { ...item, photo_urls: [''] })).toEqual(['photo_urls']);
    });
  });

  it('wants verified to be a boolean when given', () => {
    expect(problems(ReuniteBody, { location_id: 1, found_item_id: 2, verified: 'yes' })).toEqual(['verified']);
    expect(problems(ReuniteBody, { location_id: 1, found_item_id: 2 })).toEqual([]);
  });

  it('reads an unencoded + in ?to= (which arrives as a space) back as +', () => {
    expect(plainToInstance(ListSmsQuery, { to: ' 14158675309' }).to).toBe('+14158675309');
    expect(problems(ListSmsQuery, { to: ' 14158675309' })).toEqual([]);
    expect(problems(ListSmsQuery, { to: '4158675309' })).toEqual(['to']);
  });
});
