import { mountPage } from '$lib/mount';
import Questions from './Questions.svelte';

mountPage(Questions);
