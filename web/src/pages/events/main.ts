import { mountPage } from '$lib/mount';
import Events from './Events.svelte';

mountPage(Events);
