import { mountPage } from '$lib/mount';
import Onboarding from './Onboarding.svelte';

mountPage(Onboarding);
