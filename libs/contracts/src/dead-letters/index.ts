export * from './dead-letter.dto';
export * from './dead-letters.rpc';
