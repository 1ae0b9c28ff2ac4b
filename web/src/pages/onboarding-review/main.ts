import { mountPage } from '$lib/mount';
import OnboardingReview from './OnboardingReview.svelte';

mountPage(OnboardingReview);
