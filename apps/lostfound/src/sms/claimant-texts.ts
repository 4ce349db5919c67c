import type { ValueClass } from '@switchboard/contracts';

export interface MatchTextFacts {
  claim_id: number;
  claim_class: ValueClass;
  item_class: ValueClass;
  location_name: string;
  /** Item facts: used only when both the claim and the item are low-value. */
  category: string;
  description: string;
  color: string;
  found_date: string;
}

const MAX_DESCRIPTION_IN_TEXT = 60;

/**
 * The text a claimant gets when a newly logged item matches their claim. Only when both the claim and the item are
 * low-value does it say what was found; otherwise it says only that there may be a match and to bring proof, so a
 * text never tells anyone what a high-value item looks like (docs/adr/0045-lostfound-sms.md).
 */
export function matchText(facts: MatchTextFacts): string {
  const where = clip(facts.location_name, 40);
  if (facts.claim_class === 'low' && facts.item_class === 'low') {
    const color = facts.color ? ` (${clip(facts.color, 20)})` : '';
    return (
      `${where} lost & found: an item that may be yours was handed in on ${facts.found_date}: ` +
      `${clip(facts.description, MAX_DESCRIPTION_IN_TEXT)}${color}. Claim #${facts.claim_id}. Call us or stop by to collect it.`
    );
  }
  return (
    `${where} lost & found: we may have a possible match for your claim #${facts.claim_id}. ` +
    'Please call us, and bring proof of ownership when you come.'
  );
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
