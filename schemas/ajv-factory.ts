// The one Ajv configuration: strict mode, all errors, formats, discriminator. Used at run time and by the standalone generator.
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { closedVariant, loadAllSchemas } from './schema-files.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const AJV_OPTIONS: Options = {
  strict: true,
  allErrors: true,
  allowUnionTypes: true, // `["string","null"]` is how the spec's nullable fields are written
  discriminator: true,
};

/** An Ajv instance holding every schema and its closed variant (added, not yet compiled). */
export function createAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...extra });
  addFormats(ajv);
  for (const schema of loadAllSchemas()) ajv.addSchema(schema).addSchema(closedVariant(schema));
  return ajv;
}
