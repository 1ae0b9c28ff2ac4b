import { mountPage } from '$lib/mount';
import Checkin from './Checkin.svelte';

mountPage(Checkin);
