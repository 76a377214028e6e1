/**
 * List queries (API §0.3): turns the validated query parameters into a store ListQuery and the
 * store's page into the wire envelope.
 */
import { Invalid } from './errors.ts';
import type { ListPage, ListQuery } from './ports.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether `YYYY-MM-DD` names a real calendar day (Date would roll 2026-02-30 over to March 2). */
function isCalendarDay(day: string): boolean {
  const start = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(start.getTime()) && start.toISOString().slice(0, 10) === day;
}

/** `YYYY-MM-DD` is the start (or end) of that UTC day; RFC 3339 is the instant itself. */
export function parseDateBound(value: string, param: 'from_date' | 'to_date'): string {
  const day = DAY.exec(value);
  if (day) {
    if (!isCalendarDay(value)) {
      throw Invalid.at(['query', param], `Invalid date: ${value} is not a calendar day`, 'date_from_datetime_parsing', value);
    }
    const start = new Date(`${value}T00:00:00.000Z`);
    return param === 'from_date' ? start.toISOString() : new Date(start.getTime() + 86_400_000 - 1).toISOString();
  }
  const parts = RFC3339.exec(value);
  const instant = new Date(value);
  // Date accepts 2026-02-30T... (rolling over to March) and hour 24: RFC 3339 allows neither.
  const inRange =
    parts !== null &&
    isCalendarDay(parts[1]!) &&
    Number(parts[2]) <= 23 &&
    Number(parts[3]) <= 59 &&
    Number(parts[4]) <= 59 &&
    (parts[6] === undefined || (Number(parts[6]) <= 23 && Number(parts[7]) <= 59));
  if (!inRange || Number.isNaN(instant.getTime())) {
    throw Invalid.at(['query', param], 'Invalid date: expected YYYY-MM-DD or an RFC 3339 timestamp', 'datetime_parsing', value);
  }
  return instant.toISOString();
}

export interface ListParams {
  limit: number;
  order: 'asc' | 'desc';
  before?: string | undefined;
  after?: string | undefined;
  from_date?: string | undefined;
  to_date?: string | undefined;
  filename?: string | undefined;
  status?: string | undefined;
}

export function toListQuery(params: ListParams, attrs?: Record<string, string | undefined>): ListQuery {
  if (params.before !== undefined && params.after !== undefined) {
    throw Invalid.at(['query', 'before'], 'Give either before or after, not both', 'value_error');
  }
  const query: ListQuery = { limit: params.limit, order: params.order };
  if (params.before !== undefined) query.before = params.before;
  if (params.after !== undefined) query.after = params.after;
  if (params.from_date !== undefined) query.fromTime = parseDateBound(params.from_date, 'from_date');
  if (params.to_date !== undefined) query.toTime = parseDateBound(params.to_date, 'to_date');
  if (params.filename !== undefined && params.filename !== '') query.filenamePrefix = params.filename;
  if (params.status !== undefined) query.status = params.status;
  const definedAttrs = Object.fromEntries(Object.entries(attrs ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  if (Object.keys(definedAttrs).length > 0) query.attrs = definedAttrs;
  return query;
}

export function listEnvelopeOf<T, U>(page: ListPage<T>, render: (data: T) => U) {
  return {
    data: page.items.map((item) => render(item.data)),
    list_metadata: { before: page.before, after: page.after },
  };
}
