import { mountPage } from '$lib/mount';
import Application from './Application.svelte';

mountPage(Application);
