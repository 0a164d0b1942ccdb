/**
 * `npm run coverage [-- <catalogue.json>]`: writes docs/coverage.md, the entity list of docs/streaming.md, the
 * README's coverage line and the names-only catalogue list. The catalogue is read from the path given, else from
 * ../shared/reference/platform-openapi.json, else from the names-only list kept in scripts/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CATALOGUE, generatedFiles, root } from './lib/coverage.js';

const files = await generatedFiles(process.argv[2] ?? DEFAULT_CATALOGUE);
for (const { file, content } of files) {
  const path = join(root, file);
  if (existsSync(path) && readFileSync(path, 'utf8') === content) continue;
  writeFileSync(path, content);
  console.log(`wrote ${file}`);
}
