// plasma: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import { animatedGeneratorContract } from '../../../test/unit/generators/generator-contract.ts';
import gen from './plasma.generator.ts';

animatedGeneratorContract(gen, {
  invalid: [{ scheme: 'rainbow' }, { speed: 2.5 }, { colorCycles: 5 }, { detail: 63 }, { scale: 0.2 }],
  loops: [
    { speed: 3, colorCycles: 2 },
    { fps: 10, duration: 1.05 },
    { detail: 64, scale: 4 },
    { scheme: 'neon' },
    { scheme: 'custom', palette: ['#000000', '#ffffff'] },
  ],
});
