import { mountPage } from '$lib/mount';
import NotFound from './NotFound.svelte';

mountPage(NotFound);
