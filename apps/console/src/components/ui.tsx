// The console's small design system: fields with their errors, buttons, notices, a confirmation dialog, a
// secret shown once with a copy button, a list as a table, a cursor pager, the page of a thing that failed to load, a
// hook that loads a GET with its error and one that sends a form with its failure. Styles: styles.css.
import {
  Fragment,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type Dispatch,
  type ReactNode,
  type SetStateAction,
} from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api';

/**
 * Loads `load()` now and whenever `deps` change; `reload()` loads again. `replace(update)` shows what a change the
 * server just answered made, in the same render as the rest of its outcome, so a control bound to the data does not
 * fall back to the old value until the reload lands.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
  replace: (update: (data: T) => T) => void;
} {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: Error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
    // deps are the caller's, as with useEffect.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const replace = useCallback(
    (update: (data: T) => T) =>
      setState((previous) => (previous.data === undefined ? previous : { ...previous, data: update(previous.data) })),
    [],
  );
  return { data: state.data, error: state.error, loading: state.loading, reload, replace };
}

/**
 * A form's values, taken from loaded data: whenever `source` changes (a load or a reload), the draft becomes
 * `toDraft(source, draft)` in that same render. An effect would do it one paint later, showing the form's old values
 * beside the newly loaded data for a frame (and a test reading the field in that frame sees them).
 */
export function useDraft<S, D>(
  source: S | undefined,
  toDraft: (source: S, draft: D) => D,
  empty: D,
): [D, Dispatch<SetStateAction<D>>] {
  const [draft, setDraft] = useState(() => (source === undefined ? empty : toDraft(source, empty)));
  const [seen, setSeen] = useState(source);
  if (source !== seen) {
    setSeen(source);
    if (source !== undefined) setDraft(toDraft(source, draft));
  }
  return [draft, setDraft];
}

/** The message of whatever failed, for people. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/**
 * A form's failure: each problem a 400 names next to its field (when the form has that field), anything else at
 * the top of the form. `fields` are the names the form's inputs carry.
 */
export interface FormFailure {
  /** Shown at the top of the form. */
  message?: string;
  /** Shown next to the field of that name. */
  fields: Record<string, string>;
}

export function failureOf(error: unknown, fields: readonly string[]): FormFailure {
  if (error instanceof ApiError && error.fields) {
    const mine = Object.fromEntries(Object.entries(error.fields).filter(([name]) => fields.includes(name)));
    const placed = Object.keys(mine).length;
    if (placed > 0) {
      const others = Object.entries(error.fields)
        .filter(([name]) => !fields.includes(name))
        .map(([, text]) => text);
      return { fields: mine, message: others.length ? others.join(' ') : undefined };
    }
  }
  return { message: messageOf(error), fields: {} };
}

/**
 * A form's sending, as every form of the console does it: `send(work)` marks the form busy and clears its failure,
 * and a failure of `work` is placed at the form's `fields` (failureOf). `setFailure` is for the form's own checks,
 * before anything is sent.
 */
export function useFormSend(fields: readonly string[]): {
  busy: boolean;
  failure: FormFailure | undefined;
  setFailure: Dispatch<SetStateAction<FormFailure | undefined>>;
  send: (work: () => Promise<void>) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const send = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(failureOf(error, fields));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, send };
}

/** A failure of the form's own checks, before anything is sent. */
export function fieldFailure(field: string, message: string): FormFailure {
  return { fields: { [field]: message } };
}

interface FieldProps {
  label: string;
  name: string;
  hint?: ReactNode;
  error?: string;
  type?: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel' | 'url' | 'email';
  multiline?: boolean;
  disabled?: boolean;
  min?: string;
  step?: string;
  /** Suggestions: the id of a `<datalist>` (the person may still type anything). */
  list?: string;
  maxLength?: number;
  /** In a search form every field is optional: no "(optional)" after each label. */
  hideOptional?: boolean;
}

export function Field(props: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    disabled: props.disabled,
    placeholder: props.placeholder,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className={`field${props.error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>
        {props.label}
        {props.required || props.hideOptional ? null : <span className="optional"> (optional)</span>}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={3} onChange={(event) => props.onChange(event.target.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          min={props.min}
          step={props.step}
          list={props.list}
          maxLength={props.maxLength}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      {props.hint ? (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  busy?: boolean;
};

export function Button({ variant = 'secondary', busy, className, children, disabled, ...rest }: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      className={`button button--${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}

/** A message in the flow of the page: `error` is announced at once (role=alert), the others politely. */
export function Notice({
  tone,
  children,
  title,
}: {
  tone: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
  title?: string;
}) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {title ? <p className="notice-title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A failed load, with a way to try again. */
export function LoadError({ error, retry }: { error: Error; retry?: () => void }) {
  return (
    <Notice tone="error">
      {messageOf(error)}{' '}
      {retry ? (
        <Button variant="quiet" onClick={retry}>
          Try again
        </Button>
      ) : null}
    </Notice>
  );
}

/** The page of one thing (a call, a number, an item, a claim) that could not load it: why, a retry, the way back. */
export function PageLoadError(props: {
  title: string;
  error: Error;
  retry: () => void;
  back: string;
  backLabel: string;
}) {
  return (
    <section>
      <PageHeader title={props.title} />
      <LoadError error={props.error} retry={props.retry} />
      <p>
        <Link to={props.back}>{props.backLabel}</Link>
      </p>
    </section>
  );
}

/**
 * A confirmation as a modal <dialog> (the browser traps focus, Escape cancels). `onConfirm` may fail: its
 * message shows in the dialog and nothing closes.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  variant?: 'danger' | 'secondary';
  disabled?: boolean;
  disabledReason?: string;
  accessibleLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const open = () => {
    setError(undefined);
    dialog.current?.showModal();
  };
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      dialog.current?.close();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        variant={props.variant ?? 'danger'}
        onClick={open}
        disabled={props.disabled}
        title={props.disabled ? props.disabledReason : undefined}
        aria-label={props.accessibleLabel}
      >
        {props.label}
      </Button>
      <dialog ref={dialog} aria-labelledby={titleId} className="dialog">
        <h2 id={titleId}>{props.title}</h2>
        <div className="dialog-body">{props.body}</div>
        {error ? <Notice tone="error">{error}</Notice> : null}
        <div className="actions">
          <Button variant="secondary" onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </Button>
          <Button variant={props.variant ?? 'danger'} busy={busy} onClick={() => void confirm()}>
            {props.confirmLabel}
          </Button>
        </div>
      </dialog>
    </>
  );
}

/** A secret shown once, with a copy button; it is never stored anywhere by the console. */
export function OneTimeSecret({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('no');
    }
  };
  return (
    <div className="secret" data-testid="one-time-secret">
      <p className="secret-title">{label}</p>
      <p className="secret-warning">Copy it now: it is shown only this once and cannot be shown again.</p>
      <div className="secret-row">
        <label className="visually-hidden" htmlFor={id}>
          {label}
        </label>
        <input
          id={id}
          ref={field}
          className="secret-value"
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
        />
        <Button variant="primary" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      <p className="secret-copied" role="status">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'no'
            ? 'Press Ctrl+C (⌘C) to copy the selected text.'
            : ''}
      </p>
      {children}
    </div>
  );
}

export function PageHeader({
  title,
  children,
  description,
}: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1 tabIndex={-1} className="page-title">
          {title}
        </h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {children ? <div className="page-actions">{children}</div> : null}
    </div>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const tone = ['active', 'completed', 'delivered', 'reunited', 'returned'].includes(status)
    ? 'good'
    : ['past_due', 'invited', 'pending', 'open'].includes(status)
      ? 'warn'
      : ['released', 'revoked', 'failed', 'disposed'].includes(status)
        ? 'bad'
        : 'neutral';
  return <span className={`badge badge--${tone}`}>{status.replace(/_/g, ' ')}</span>;
}

/** Previous and Next over a list the API pages with a cursor (`starting_after`, `has_more`). */
export function CursorPager(props: {
  label: string;
  onPrevious: () => void;
  onNext: () => void;
  hasPrevious: boolean;
  hasNext: boolean;
}) {
  return (
    <nav className="pager" aria-label={props.label}>
      <Button onClick={props.onPrevious} disabled={!props.hasPrevious}>
        Previous
      </Button>
      <Button onClick={props.onNext} disabled={!props.hasNext}>
        Next
      </Button>
    </nav>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * An identifier in code type (an event type, a key's start) that may wrap after its dots, underscores and hyphens and
 * nowhere else: `webhook.endpoint_disabled` never breaks as `webhook.endpoint_dis` / `abled` in a narrow cell.
 */
export function Ident({ children }: { children: string }) {
  const parts = children.split(/(?<=[._-])/);
  return (
    <code className="ident">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </code>
  );
}

/** One fact in a `<dl className="facts">` (a call's, an item's, an invitation's); a dash when it is empty. */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </div>
  );
}

/** One column of a `Listing`. */
export interface Column<Row> {
  /** Its heading, and each cell's `data-label`: the heading a phone shows beside the value (styles.css). */
  header: string;
  /** Heard by a screen reader, not shown, and no label beside its cells on a phone (a column of buttons). */
  hideHeader?: boolean;
  /** On its heading and each cell (`num`: figures right-aligned). */
  className?: string;
  /** A cell's own class beside it (a negative amount's colour). */
  cellClassName?: (row: Row) => string;
  cell: (row: Row) => ReactNode;
}

/**
 * A list a page loads with `useLoad` (`load`, and its `rows`): its failure with a retry, "Loading …" until the first answer, `empty` when it
 * has no row, and otherwise a table of `columns` (a column left out as `false`), kept on screen (`aria-busy`) while the
 * next page or filter loads.
 */
export function Listing<Row>(props: {
  load: { error: Error | undefined; loading: boolean; reload: () => void };
  /** The rows loaded (undefined until the first answer). */
  rows: readonly Row[] | undefined;
  /** What is loading: "Loading {what}…". */
  what: string;
  empty: ReactNode;
  caption: ReactNode;
  testId?: string;
  columns: readonly (Column<Row> | false)[];
  rowKey: (row: Row) => string | number;
  /** The row's own attributes (`data-claim-id`), what tests and links find it by. */
  rowAttributes?: (row: Row) => Record<`data-${string}`, string | number>;
}) {
  const { load } = props;
  const columns = props.columns.filter((column): column is Column<Row> => column !== false);
  const { rows } = props;
  return (
    <>
      {load.error ? <LoadError error={load.error} retry={load.reload} /> : null}
      {!rows && load.loading ? <Loading what={props.what} /> : null}
      {rows && rows.length === 0 ? <Empty>{props.empty}</Empty> : null}
      {rows && rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid={props.testId} aria-busy={load.loading || undefined}>
            <caption className="visually-hidden">{props.caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" key={column.header} className={column.className}>
                    {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={props.rowKey(row)} {...props.rowAttributes?.(row)}>
                  {columns.map((column) => (
                    <td
                      key={column.header}
                      data-label={column.hideHeader ? undefined : column.header}
                      className={[column.className, column.cellClassName?.(row)].filter(Boolean).join(' ') || undefined}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
