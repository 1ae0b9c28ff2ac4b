import { mountPage } from '$lib/mount';
import Access from './Access.svelte';

mountPage(Access);
