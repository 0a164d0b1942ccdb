import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as search from './service.js';

/** Object searches over the organization's detections: by colour, by likeness, and re-identification of people. */
export function objectSearchRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Search'];
  operation(
    app,
    {
      path: '/api/search/searchObjectsByColor',
      operationId: 'searchObjectsByColor',
      summary: "The detections of the organization's cameras of the colours asked, over a window",
      tags,
      body: s.SearchObjectsByColorRequest,
      response: s.SearchObjectsByColorResponse,
    },
    (input, ctx) => search.searchObjectsByColor(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/search/searchSimilarObjectEmbeddings',
      operationId: 'searchSimilarObjectEmbeddings',
      summary: 'The detections most like one found before (its embeddingId), nearest first',
      tags,
      body: s.SearchSimilarObjectEmbeddingsRequest,
      response: s.SearchSimilarObjectEmbeddingsResponse,
    },
    (input, ctx) => search.searchSimilarObjectEmbeddings(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/search/searchSimilarObjectEmbeddingsByText',
      operationId: 'searchSimilarObjectEmbeddingsByText',
      summary: 'The detections most like what a text describes ("red sedan"), nearest first',
      tags,
      body: s.SearchSimilarObjectEmbeddingsByTextRequest,
      response: s.SearchSimilarObjectEmbeddingsResponse,
    },
    (input, ctx) => search.searchSimilarObjectEmbeddingsByText(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/search/listReidentificationEmbeddings',
      operationId: 'listReidentificationEmbeddings',
      summary: 'The people seen by cameras over a window, each with its re-identification vector',
      tags,
      platformSource: 'newer',
      body: s.ListReidentificationEmbeddingsRequest,
      response: s.ListReidentificationEmbeddingsResponse,
    },
    (input, ctx) => search.listReidentificationEmbeddings(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/search/searchReidentificationMatchesByEmbedding',
      operationId: 'searchReidentificationMatchesByEmbedding',
      summary: 'The people seen nearest to a re-identification vector',
      tags,
      platformSource: 'newer',
      body: s.SearchReidentificationMatchesByEmbeddingRequest,
      response: s.SearchReidentificationMatchesByEmbeddingResponse,
    },
    (input, ctx) => search.searchReidentificationMatchesByEmbedding(deps, ctx, input),
  );
}
