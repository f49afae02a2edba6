// Writes src/api/generated/operations.ts from src/api/operations/*.graphql and the server's printed schema:
// `npm run generate:admin-ui` after changing a document (or after the server's schema changed).
import { writeFileSync } from 'node:fs';
import { generateOperationModule } from './operationTypes.ts';
import { GENERATED_MODULE, readDocumentFiles, readSystemSchema } from './sources.ts';

writeFileSync(GENERATED_MODULE, generateOperationModule(readSystemSchema(), readDocumentFiles(), 'admin-ui/codegen/generate.ts'));
process.stdout.write(`wrote ${GENERATED_MODULE.pathname}\n`);
