// The server's import rule (docs/decisions/092): every file of apps/server/src
// belongs to a layer by where it lives, and imports only from its own layer or
// a lower one. Routes call use cases, use cases call the engine and
// repositories, and those reach the database; never the other way round.
// Shared pieces outside the layers (config, errors, ids, adapters, the
// composition in http/app.ts's callers) may be imported from anywhere.
import type { Rule } from 'eslint'
import type {
  CallExpression,
  ExportAllDeclaration,
  ExportNamedDeclaration,
  ImportDeclaration,
  ImportExpression,
  Node,
  TaggedTemplateExpression,
} from 'estree'
import path from 'node:path'

const serverSource = path.resolve(import.meta.dirname, '../../apps/server/src')

interface Layer {
  rank: number
  name: string
  holds: (file: string) => boolean
}

const layers: Layer[] = [
  { rank: 0, name: 'db/', holds: (file: string) => file.startsWith('db/') },
  {
    rank: 3,
    name: 'routes',
    holds: (file: string) => file.startsWith('http/') || /^modules\/[^/]+\/routes\//.test(file) || /^modules\/.*-routes\.ts$/.test(file),
  },
  {
    rank: 1,
    name: 'engine, repositories and views',
    holds: (file: string) =>
      file.startsWith('ledger/') || /^modules\/[^/]+\/engine\//.test(file) || /^modules\/.*-(repository|view|views)\.ts$/.test(file),
  },
  { rank: 2, name: 'use cases', holds: (file: string) => file.startsWith('modules/') },
]

/** The layer of a file given by its path inside apps/server/src; undefined outside the layers. */
export function serverLayerOf(file: string): Layer | undefined {
  return layers.find((layer) => layer.holds(file))
}

export const serverLayersRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Server imports flow one way: routes → use cases → engine, repositories, views → db/.' },
    messages: {
      upward: '{{from}} may not import {{to}} ({{target}}): imports flow routes → use cases → engine, repositories, views → db/.',
    },
    schema: [],
  },
  create(context) {
    const file = path.relative(serverSource, context.filename)
    if (file.startsWith('..')) return {}
    const own = serverLayerOf(file)
    if (!own) return {}
    const check = (node: Node, specifier: unknown) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return
      const target = path.relative(serverSource, path.resolve(path.dirname(context.filename), specifier))
      const theirs = serverLayerOf(target)
      if (theirs && theirs.rank > own.rank) {
        context.report({ node, messageId: 'upward', data: { from: own.name, to: theirs.name, target } })
      }
    }
    return {
      ImportDeclaration: (node: ImportDeclaration) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node: ExportNamedDeclaration) => {
        if (node.source) check(node.source, node.source.value)
      },
      ExportAllDeclaration: (node: ExportAllDeclaration) => check(node.source, node.source.value),
      ImportExpression: (node: ImportExpression) => {
        if (node.source.type === 'Literal') check(node.source, node.source.value)
      },
    }
  },
}

/** Kysely's query builders: a call of one of these is SQL. */
const queryBuilders = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto'])

/**
 * A module's SQL is in its repositories (docs/decisions/093): routes and use
 * cases call repository functions and keep only the transaction boundaries
 * (`db.transaction()`). The engine, `ledger/` and `db/` write their own.
 */
export const sqlInRepositoriesRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: "Routes and use cases hold no SQL: it belongs in the module's *-repository.ts." },
    messages: { query: "{{layer}} hold no SQL: move this query into the module's *-repository.ts." },
    schema: [],
  },
  create(context) {
    const file = path.relative(serverSource, context.filename)
    const layer = serverLayerOf(file)
    if (!layer || layer.rank < 2) return {}
    const report = (node: Node) => context.report({ node, messageId: 'query', data: { layer: layer.name } })
    return {
      CallExpression: (node: CallExpression) => {
        const callee = node.callee
        if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && queryBuilders.has(callee.property.name))
          report(node)
      },
      TaggedTemplateExpression: (node: TaggedTemplateExpression) => {
        if (node.tag.type === 'Identifier' && node.tag.name === 'sql') report(node)
      },
    }
  },
}
