// The import rules of docs/architecture.md, checked by `npm run lint` (dependency-cruiser): imports only run
// down the layers, a domain calls only the domains below it (and never another domain's store), only stores
// touch Kysely, and no import circle exists anywhere.

/** The layers, lowest first: a module may import its own layer and the layers below it, never one above. */
const LAYERS = [
  { name: 'ground', path: '^src/(config|ids|errors|clock|logger|secrets|data-dir|tls|admin-token|sized-lru)\\.ts$|^src/(net|schemas)/' },
  { name: 'store', path: '^src/store/' },
  { name: 'bus', path: '^src/bus/' },
  { name: 'kit', path: '^src/(deps|context)\\.ts$|^src/(records|outbox|edge|footage)/' },
  { name: 'domains', path: '^src/domains/' },
  { name: 'edges', path: '^src/(http|streaming|media)/' },
  { name: 'top', path: '^src/(app|open-deps|demo)\\.ts$|^src/(cli|console)/' },
];

/**
 * The domains, lowest first: a domain may call the domains before it in this list, never one after it, so
 * that no two domains call each other. Moving a domain means moving what it calls, not adding an exception.
 */
const DOMAINS = [
  'timeline',
  'schedules',
  'orgs',
  'audit',
  'changes',
  'internal',
  'devices',
  'faces',
  'guests',
  'access',
  'policies',
  'events',
  'integrations',
  'chatbot',
  'rules',
  'notifications',
  'support',
  'partner-clients',
  'sites',
];

const above = (list, i) => list.slice(i + 1);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: move the shared piece down, or invert the dependency through an interface.',
      from: {},
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `layer-${layer.name}`,
      severity: 'error',
      comment: `The ${layer.name} layer imports a layer above it (${above(LAYERS, i)
        .map((l) => l.name)
        .join(', ')}): imports only run down (docs/architecture.md).`,
      from: { path: layer.path },
      to: {
        path: above(LAYERS, i)
          .map((l) => `(${l.path})`)
          .join('|'),
      },
    })),
    ...DOMAINS.slice(0, -1).map((domain, i) => ({
      name: `domain-${domain}`,
      severity: 'error',
      comment: `The ${domain} domain calls a domain after it in the order of .dependency-cruiser.cjs: no two domains call each other.`,
      from: { path: `^src/domains/${domain}/` },
      to: { path: `^src/domains/(${above(DOMAINS, i).join('|')})/` },
    })),
    {
      name: 'unknown-domain',
      severity: 'error',
      comment: 'A domain folder missing from the order in .dependency-cruiser.cjs.',
      from: {},
      to: { path: '^src/domains/[^/]+/', pathNot: `^src/domains/(${DOMAINS.join('|')})/` },
    },
    {
      name: 'no-foreign-store',
      severity: 'error',
      comment: "A domain imports another domain's store: call that domain's service instead.",
      from: { path: '^src/domains/([^/]+)/' },
      to: { path: 'store\\.ts$', pathNot: '^src/domains/$1/|^src/store/' },
    },
    {
      name: 'kysely-in-stores',
      severity: 'error',
      comment: 'Only the store layer, store.ts files and table declarations touch Kysely.',
      from: { path: '^src/', pathNot: '^src/store/|store\\.ts$|tables\\.ts$' },
      to: { path: '^node_modules/kysely/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/|^node_modules/kysely/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
