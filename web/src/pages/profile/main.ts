import { mountPage } from '$lib/mount';
import Profile from './Profile.svelte';

mountPage(Profile);
