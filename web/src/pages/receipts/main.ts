import { mountPage } from '$lib/mount';
import Receipts from './Receipts.svelte';

mountPage(Receipts);
