// truchet: the shared generator contract (lib/generator-contract.ts) with its own params.
import { stillGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './truchet.generator.ts';

stillGeneratorContract(gen, {
  invalid: [{ style: 'hex' }],
  variants: [{ style: 'arcs-filled' }, { style: 'diagonal' }, { style: 'triangles', tileSize: 12 }],
});
