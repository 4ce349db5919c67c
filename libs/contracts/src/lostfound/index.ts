export * from './location.dto';
