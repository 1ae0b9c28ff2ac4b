import { mountPage } from '$lib/mount';
import AdminApplications from './AdminApplications.svelte';

mountPage(AdminApplications);
