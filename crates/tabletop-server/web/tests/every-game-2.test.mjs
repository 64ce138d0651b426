// Every game played to the end by clicking, part 2 of 3 (every-game.mjs).
import { everyGame } from './every-game.mjs';

everyGame(1, 3);
