import { mountPage } from '$lib/mount';
import Selections from './Selections.svelte';

mountPage(Selections);
