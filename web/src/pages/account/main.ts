import { mountPage } from '$lib/mount';
import Account from './Account.svelte';

mountPage(Account);
