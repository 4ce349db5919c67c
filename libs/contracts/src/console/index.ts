export * from './console.dto';
