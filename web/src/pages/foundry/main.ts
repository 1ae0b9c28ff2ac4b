import { mountPage } from '$lib/mount';
import Foundry from './Foundry.svelte';

mountPage(Foundry);
