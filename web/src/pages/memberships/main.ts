import { mountPage } from '$lib/mount';
import Memberships from './Memberships.svelte';

mountPage(Memberships);
