import { mountPage } from '$lib/mount';
import Emails from './Emails.svelte';

mountPage(Emails);
