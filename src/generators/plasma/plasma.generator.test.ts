// plasma: the shared animated-generator contract (lib/generator-contract.ts), then what is its own.
import { animatedGeneratorContract } from '../lib/generator-contract.ts';
import gen from './plasma.generator.ts';

animatedGeneratorContract(gen, { invalid: [], loops: [{ speed: 3, colorCycles: 2 }, { fps: 10, duration: 1.05 }, { detail: 64, scale: 4 }] });
