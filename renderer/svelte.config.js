export { default } from '../svelte.config.js';
