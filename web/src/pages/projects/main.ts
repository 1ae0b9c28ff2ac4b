import { mountPage } from '$lib/mount';
import Projects from './Projects.svelte';

mountPage(Projects);
