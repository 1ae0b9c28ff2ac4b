import { mountPage } from '$lib/mount';
import Review from './Review.svelte';

mountPage(Review);
