export * from './system';
export * from './session';
