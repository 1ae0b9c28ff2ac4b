import { mountPage } from '$lib/mount';
import Home from './Home.svelte';

mountPage(Home);
