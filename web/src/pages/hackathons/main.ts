import { mountPage } from '$lib/mount';
import Hackathons from './Hackathons.svelte';

mountPage(Hackathons);
