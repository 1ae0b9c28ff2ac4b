import { mountPage } from '$lib/mount';
import Terms from './Terms.svelte';

mountPage(Terms);
