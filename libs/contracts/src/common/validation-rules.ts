import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type LookUp = MetadataStorage['getTargetValidationMetadatas'];
type ValidationMetadata = ReturnType<LookUp>[number];

const REMEMBERING = Symbol.for('switchboard.rememberValidationRules');

/** How many rules were declared since the storage was wrapped: what was derived from the rules holds while it stays. */
let declared = 0;

/** Changes whenever a rule is declared after `rememberValidationRules` (quick-validation.ts keeps its plans by it). */
export function validationRulesGeneration(): number {
  return declared;
}

/**
 * Makes class-validator look up each class's rules once. On every validation of every object (a body, an RPC, an
 * event, each nested object) it gathers the class's rules by walking the rules of every class it knows, to find the
 * inherited ones, and groups them by property anew: 2-2.5% of each service's CPU in the event pipeline and on the API
 * (docs/performance.md, eighth pass), for an answer that changes only when a rule is declared. The answers are kept
 * per class and options and forgotten whenever a rule is added (a class declared later, a mapped type), so a lookup
 * never misses a rule; they are the same arrays and objects class-validator would build, which it only reads.
 *
 * The storage is process-wide (class-validator keeps it on `global`, shared by every copy of the package), so this
 * runs once per process whoever calls it first; `storage` is for tests.
 */
export function rememberValidationRules(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { [REMEMBERING]?: true };
  if (marked[REMEMBERING]) return;
  marked[REMEMBERING] = true;

  const lookUp: LookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let found = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata: ValidationMetadata) => {
    declared += 1;
    found = new Map();
    grouped = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const options = JSON.stringify([schema ?? null, always, strictGroups, groups ?? null]);
    let byOptions = found.get(target);
    if (!byOptions) found.set(target, (byOptions = new Map()));
    let rules = byOptions.get(options);
    if (!rules) byOptions.set(options, (rules = lookUp(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.groupByPropertyName = (metadata: ValidationMetadata[]) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}
