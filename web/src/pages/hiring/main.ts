import { mountPage } from '$lib/mount';
import Hiring from './Hiring.svelte';

mountPage(Hiring);
