import { mountPage } from '$lib/mount';
import Apply from './Apply.svelte';

mountPage(Apply);
