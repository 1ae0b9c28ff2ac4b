import { mountPage } from '$lib/mount';
import Leaderboard from './Leaderboard.svelte';

mountPage(Leaderboard);
