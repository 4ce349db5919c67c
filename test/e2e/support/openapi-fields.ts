/** The parts of an OpenAPI 3.1 schema this check reads. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

interface Document {
  components?: { schemas?: Record<string, Schema> };
}

/**
 * The fields of `value` that `schema` does not declare, by path (`data[0].attempts[1].latency_ms`): an answer that
 * carries a field the OpenAPI description leaves out fails the test that checks it, as a typed client would miss it.
 */
export function undeclaredFields(document: Document, schema: Schema, value: unknown, path = ''): string[] {
  const resolved = resolve(document, schema);
  if (Array.isArray(value)) {
    const items = resolved.items;
    return items ? value.flatMap((item, index) => undeclaredFields(document, items, item, `${path}[${index}]`)) : [];
  }
  if (value === null || typeof value !== 'object') return [];
  const properties = propertiesOf(document, resolved);
  if (properties === undefined) return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, field]) => {
    const at = path ? `${path}.${key}` : key;
    const declared = properties[key];
    return declared ? undeclaredFields(document, declared, field, at) : [at];
  });
}

function resolve(document: Document, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = document.components?.schemas?.[name];
  if (!target) throw new Error(`unknown schema ${schema.$ref}`);
  return resolve(document, target);
}

/** Declared properties (allOf merged); undefined when the schema allows any (free-form object, union). */
function propertiesOf(document: Document, schema: Schema): Record<string, Schema> | undefined {
  if (schema.additionalProperties || schema.oneOf || schema.anyOf) return undefined;
  let properties: Record<string, Schema> = { ...schema.properties };
  for (const part of schema.allOf ?? []) {
    const more = propertiesOf(document, resolve(document, part));
    if (more === undefined) return undefined;
    properties = { ...properties, ...more };
  }
  return schema.properties || schema.allOf ? properties : undefined;
}
