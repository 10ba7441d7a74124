import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from 'kysely'
import type { Database } from './schema.ts'

/** Where one value goes: a stand-in the builder passes on as a value, found again among the compiled parameters. */
class Slot {
  readonly group: string
  readonly key: string
  constructor(group: string, key: string) {
    this.group = group
    this.key = key
  }
}

/** Groups of named values, e.g. `{ row: { id, status, … } }`: one object per `values()` or parameter set. */
type ValueGroups = Record<string, object>

/** At most this many shapes are kept per statement; a statement with more is built each time past them. */
const maxShapes = 20

/**
 * A statement whose text depends only on which values it carries, not on
 * what they are: it is built and compiled once per shape (which keys of each
 * group are set) and then sent with each call's values in place of the
 * stand-ins. Building a large insert with Kysely was 8.5 % of a create and
 * the batched GET's 7 % (issue 13, docs/decisions/076-statements-built-once.md).
 *
 * `build` gets stand-ins, not the values: it must pass them on as values
 * (`values(row)`, `` sql`any(${ids})` ``) and never look at them — a
 * condition on one would be decided once, on the stand-in, for every call.
 * It may ask whether a value is set (`!== undefined`): that is the shape.
 * Work out anything that depends on the values before, and hand in the
 * results as values. An undefined value is left out of the shape, as
 * Kysely leaves it out of an insert.
 *
 * Compiled with the Kysely instance of the first call of each shape; the
 * statement is then sent through the instance of each call (a transaction's
 * included). The instances must share their dialect (PostgreSQL and PGlite
 * do) and the query plugins (the server has none).
 */
export function statementTemplate<Groups extends ValueGroups, Row>(
  build: (db: Kysely<Database>, values: Groups) => Compilable<Row>,
): (db: Kysely<Database>, values: Groups) => CompiledQuery<Row> {
  const byShape = new Map<string, CompiledQuery<Row>>()
  return (db, values) => {
    const shape = shapeOf(values)
    let statement = byShape.get(shape)
    if (!statement) {
      statement = build(db, standIns(values)).compile()
      if (byShape.size < maxShapes) byShape.set(shape, statement)
    }
    return {
      ...statement,
      queryId: createQueryId(),
      parameters: statement.parameters.map((parameter) => (parameter instanceof Slot ? valueAt(values, parameter) : parameter)),
    }
  }
}

function valueAt(values: ValueGroups, slot: Slot): unknown {
  return (values[slot.group] as Record<string, unknown>)[slot.key]
}

/** Each group's name and the keys set in it, e.g. `row:id,status,;`. Built by hand: Object.entries of a 70-value row on every create was 3 % of its JavaScript. */
function shapeOf(values: ValueGroups): string {
  let shape = ''
  for (const group in values) {
    shape += `${group}:`
    const named = values[group] as Record<string, unknown>
    for (const key in named) if (named[key] !== undefined) shape += `${key},`
    shape += ';'
  }
  return shape
}

function standIns<Groups extends ValueGroups>(values: Groups): Groups {
  return Object.fromEntries(
    Object.entries(values).map(([group, named]) => [
      group,
      Object.fromEntries(Object.entries(named).map(([key, value]) => [key, value === undefined ? undefined : new Slot(group, key)])),
    ]),
  ) as Groups
}
