import { mountPage } from '$lib/mount';
import System from './System.svelte';

mountPage(System);
