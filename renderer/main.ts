import './styles.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { initClient } from './lib/client';
import { AREAS } from './areas';
import { registerAreas } from './state/area-registry';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

registerAreas(AREAS);
const startup = initClient();
export default mount(App, { target, props: { startup } });
