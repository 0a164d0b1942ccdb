/** A JSON Schema object as TypeBox and Fastify hand it over, read by code that walks schemas (the simulator's flags). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  [keyword: string]: unknown;
}
