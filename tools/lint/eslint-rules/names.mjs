// What the rules ask of a node, whatever way the code spells it: `a.b`, `a['b']`, `a?.b`, `{ b } = a`.

/** The name of a non-computed property (`a.b`, `{ b }`) or of a computed one given as a string (`a['b']`). */
export function propertyName(node) {
  if (!node.computed && node.key?.type === 'Identifier') return node.key.name;
  if (!node.computed && node.property?.type === 'Identifier') return node.property.name;
  const key = node.key ?? node.property;
  return key?.type === 'Literal' && typeof key.value === 'string' ? key.value : undefined;
}

/** Whether a `Property` node is a name taken out of an object by destructuring (`const { b } = a`). */
export function isDestructured(property) {
  return property.parent?.type === 'ObjectPattern';
}
