import './styles.css';
import { mount } from 'svelte';
import App from './App.svelte';
import { initClient } from './lib/client';

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

const startup = initClient();
export default mount(App, { target, props: { startup } });
