/**
 * How long a transaction may wait for a connection and run (Prisma's `maxWait`, `timeout`, in ms), and its
 * isolation level (PostgreSQL's default, read committed, unless set).
 */
export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
  isolationLevel?: 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
}

/** What `Transactions` needs of an app's Prisma client. */
export interface TransactionalClient<Tx> {
  $transaction<R>(work: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>;
}

/**
 * The one way a service opens a transaction (ADR 0070): services hold this, not the Prisma client, and hand its
 * `tx` to repository methods, which are where data is read and written. Each app subclasses it with its own client
 * and `Tx` (Nest injects by class).
 */
export class Transactions<Tx> {
  constructor(private readonly client: TransactionalClient<Tx>) {}

  /** Runs `work` in one interactive transaction: committed when it resolves, rolled back when it throws. */
  run<R>(work: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R> {
    return this.client.$transaction(work, options);
  }
}
