// flow-field: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './flow-field.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ spacing: 2 }],
  variants: [
    { spacing: 4, maxLength: 0.05 },
    { spacing: 60, lineWidth: 8, detail: 4, turbulence: 4 },
  ],
});
