export * from './address-policy';
export * from './egress-policy';
