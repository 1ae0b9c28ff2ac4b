import { mountPage } from '$lib/mount';
import Broadcasts from './Broadcasts.svelte';

mountPage(Broadcasts);
