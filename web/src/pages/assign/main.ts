import { mountPage } from '$lib/mount';
import Assign from './Assign.svelte';

mountPage(Assign);
