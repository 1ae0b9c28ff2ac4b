import { mountPage } from '$lib/mount';
import Dashboard from './Dashboard.svelte';

mountPage(Dashboard);
